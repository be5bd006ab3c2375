//! Object kinds by registration: every kind of level object the editor handles (ladders,
//! checkpoints, the goal, doors with their switches, movers, agents, signs, signals) is one file here implementing
//! [`ObjectKind`], and one line in [`KINDS`]. Nothing else in the editor matches on a kind:
//! picking, dragging, deleting, copying and pasting, undo (one [`Edit::SetObjects`] for every
//! kind), the view's drawing and hover, the selected object's panel, and making a new one (the
//! placing tool each kind with [`ObjectKind::PLACE`] gets, `session/tools/place.rs`, and the
//! left panel's "add at the hero") all go through the registry.
//!
//! # What a kind owns
//! - Its list in the level document ([`ObjectKind::list`], [`ObjectKind::replace`]) and the
//!   check of a new list, through the one validator (`level::validate`) plus any rule of the
//!   editor's own ([`ObjectKind::check`]: an agent's placement; [`ObjectKind::MOST`]: one goal).
//! - Its geometry as the editor sees it: the body a press grabs ([`ObjectKind::body`], picked by
//!   its box with the handles, by its outline with the edges, or by its inside: [`BodyPick`]),
//!   point handles ([`ObjectKind::handles`], the nodes of a path when [`ObjectKind::NODES`]),
//!   corners shown on the selected object ([`ObjectKind::corners`]), a region of its own
//!   ([`ObjectKind::region`]: a door's switch), and how a drag of each [`Part`] moves it
//!   ([`ObjectKind::moved`]).
//! - How a new one is made ([`ObjectKind::placed`]: at a click or from a dragged box, as its
//!   placing tool asks, [`ObjectKind::PLACE`], [`ObjectKind::TOOL`]; or from the template its
//!   tool's panel edits, [`ObjectKind::template`]) and what a Shift-drag with
//!   that tool adds to the selected one ([`ObjectKind::with_box`]: a mover's piece); the tool
//!   that sets its region, if it has one ([`ObjectKind::REGION_TOOL`]: a door's switch).
//! - Its part in the level's signals: the name targets use and the handle a link is dragged
//!   from, if it is a source ([`ObjectKind::signal_name`], [`ObjectKind::link_point`],
//!   [`Part::Link`]: a signal); its signal fields, if it is a target
//!   ([`ObjectKind::signal_fields`]: a door, a mover; a new target kind lists its fields there
//!   and gets the lines, the linking drag and the rename with no other code; its panel shows
//!   its links with [`links::links_panel`]).
//! - How it is drawn ([`ObjectKind::draw`], through the tiny [`Pen`] the UI implements) and its
//!   panel ([`ObjectKind::panel`], the level format's field definitions plus rows of its own,
//!   through the tiny [`PanelUi`] the UI implements).
//!
//! What it must never depend on: egui or any window, GPU or audio crate (`tests/it/layering.rs`),
//! the session's selection or gestures (it is handed what it needs), or another kind.
//!
//! # Adding a kind
//! A new file here with a unit struct implementing [`ObjectKind`] (or, for a plain region of the
//! level, [`region::RegionKind`]), and one line in [`KINDS`]. Its placing tool comes with it
//! (the toolbar's Objects menu lists one per kind with a [`ObjectKind::PLACE`]); settings of the
//! tool (the agent's kind, size, facing) are a template of the new object the kind declares
//! ([`ObjectKind::template`]), which the session keeps and the tool's panel edits. The tests `every_registered_kind_round_trips` below and
//! `every_registered_kind_is_placed_by_its_tool` (`session/tools/place.rs`) iterate the
//! registry: a new kind is checked there with no test code of its own (it needs only an
//! example, [`ObjectKind::example`]).
//!
//! The erasure that lets one edit carry any kind's list is in [`registered`]: a kind file sees
//! its own item type only.
pub mod agent;
pub mod checkpoint;
pub mod composite;
pub mod door;
pub mod goal;
pub mod ladder;
pub mod links;
pub mod mover;
pub mod region;
pub mod registered;
pub mod sign;
pub mod signal;

use std::fmt::Debug;

use glam::DVec2;

use super::objects::ObjectRef;
use super::ops::{Edit, EditError};
use crate::collision::Aabb;
use crate::level::fields::ObjectField;
use crate::level::Level;
pub use registered::{AnyKind, Clip, ObjectList, Registered, Templates};

/// Makes [`KINDS`] with the level's object kinds (`level::objects::object_kinds!`) at its end.
macro_rules! kinds_with_objects {
    ($($module:ident :: $kind:ident),* $(,)?) => {
        /// Every object kind of the editor, in drawing order (later ones on top): the one list.
        /// The level's objects come last, one [`composite::Composed`] per kind, from the
        /// level's list of them.
        pub static KINDS: &[&dyn AnyKind] = &[
            &Registered::<ladder::Ladders>::KIND,
            &Registered::<checkpoint::Checkpoint>::KIND,
            &Registered::<goal::Goal>::KIND,
            &Registered::<door::Door>::KIND,
            &Registered::<mover::Mover>::KIND,
            &Registered::<agent::Agent>::KIND,
            &Registered::<sign::Signs>::KIND,
            &Registered::<signal::Signal>::KIND,
            $(&Registered::<
                composite::Composed<crate::level::objects::$module::$kind>,
            >::KIND,)*
        ];
    };
}
crate::level::objects::object_kinds!(kinds_with_objects);

/// The registered kind named `name` (an [`ObjectKind::NAME`]). Panics for a name no kind has: names
/// come from the registry (an `ObjectRef` is made from a kind's `NAME`).
pub fn kind(name: &str) -> &'static dyn AnyKind {
    KINDS
        .iter()
        .copied()
        .find(|k| k.name() == name)
        .unwrap_or_else(|| panic!("no object kind {name:?} is registered"))
}

/// How a press finds an object's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyPick {
    /// By its box, grown by the picking radius, as early as the handles (small things: an
    /// agent).
    Box,
    /// By its inside, after vertices, handles and edges (large things: a door, a mover).
    Inside,
    /// By its outline, within the picking radius, with the polygons' edges (regions that
    /// polygons and other objects stand in: a checkpoint, the goal); a press inside does what
    /// it would do without it.
    Outline,
    /// By its inside, last, behind the polygons (things set against the level's geometry: a
    /// ladder).
    Behind,
}

/// How a kind's placing tool makes a new object from what the user does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A click: a new one at the snapped point ([`Placement::At`]).
    Click,
    /// A dragged rectangle: a new one from the box ([`Placement::Box`]).
    Drag,
}

/// Where a new object goes ([`ObjectKind::placed`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placement {
    /// At a point: a click (snapped), or the hero's feet (the left panel's "add at the hero").
    At(DVec2),
    /// From a dragged box (snapped corners, with an inside).
    Box(Aabb),
}

/// The part of an object a press grabs and a drag moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The whole object.
    Body,
    /// Point handle `k` ([`ObjectKind::handles`]): a node of a mover's path, an end of an agent's
    /// patrol range.
    Handle(usize),
    /// Corner `k` ([`ObjectKind::corners`], shown and picked on the selected object only).
    Corner(usize),
    /// Its region ([`ObjectKind::region`]): a door's switch.
    Region,
    /// The handle a drag links from ([`ObjectKind::link_point`]: a signal's source): dropped
    /// on a target ([`ObjectKind::signal_fields_mut`]: a door, a mover), it adds the signal to
    /// the target's first signal field. A drag of it never moves the object.
    Link,
}

/// A colour a kind draws with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Premultiplied red, green, blue, alpha.
    Rgba([u8; 4]),
    /// The editor's colour of the selection.
    Selected,
}

/// What a kind's [`ObjectKind::draw`] is told about the object.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DrawState {
    /// Whether it is selected.
    pub selected: bool,
    /// Its selected node, when [`ObjectKind::NODES`].
    pub node: Option<usize>,
    /// The time the view previews moving objects at, s (`None`: no preview).
    pub time: Option<f64>,
}

/// The pen a kind draws with, in level coordinates; widths, radii and sizes in screen points.
/// The editor's UI implements it with egui; the model never names egui.
pub trait Pen {
    /// A closed outline.
    fn outline(&mut self, points: &[DVec2], width: f32, colour: Colour);
    /// A box's outline.
    fn rect(&mut self, r: Aabb, width: f32, colour: Colour);
    /// A line from `a` to `b`.
    fn line(&mut self, a: DVec2, b: DVec2, width: f32, colour: Colour);
    /// A circle's outline.
    fn ring(&mut self, at: DVec2, radius: f32, width: f32, colour: Colour);
    /// A filled circle.
    fn dot(&mut self, at: DVec2, radius: f32, colour: Colour);
    /// A square's outline, `size` points wide, centred on `at`.
    fn square(&mut self, at: DVec2, size: f32, width: f32, colour: Colour);
    /// A cross, `half` points each way from `at`.
    fn cross(&mut self, at: DVec2, half: f32, width: f32, colour: Colour);
    /// A short label above `at`.
    fn label(&mut self, at: DVec2, text: &str, colour: Colour);
}

/// The widgets a kind's panel is made of. The editor's UI implements it with egui.
pub trait PanelUi {
    /// The widgets of `fields` (level field definitions: label, bounds, docs as hover text);
    /// `id` keeps several panels apart, `near` is where a newly set stretch of x is centred.
    /// Returns whether any value changed.
    fn fields(&mut self, id: &str, fields: Vec<ObjectField<'_>>, near: DVec2) -> bool;
    /// A line of text.
    fn text(&mut self, text: &str);
    /// A row: an optional text, then buttons; `hover` is the row's hover text. Returns the
    /// index of the button clicked.
    fn row(&mut self, text: Option<&str>, buttons: &[&str], hover: Option<&str>) -> Option<usize>;
    /// A row for one point of a list: a selectable label, then its x and y. Returns whether
    /// the label was clicked, and whether the point changed.
    fn point_row(&mut self, label: &str, selected: bool, point: &mut DVec2) -> (bool, bool);
}

/// What a kind's panel asks of the session besides a new value of the object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanelAsks {
    /// Select this node.
    pub pick_node: Option<usize>,
    /// Delete the selected node.
    pub delete_node: bool,
}

/// One kind of level object in the editor (see the module docs). Implemented by a unit struct;
/// every function is given what it needs (the level, the item), never the session.
pub trait ObjectKind: Sync + Send + 'static {
    /// One object of this kind, as the level document holds it.
    type Item: Clone + PartialEq + Debug + Send + Sync + 'static;

    /// Its name in messages and panels (`"door"`): unique in [`KINDS`].
    const NAME: &'static str;

    /// Whether its point handles are the nodes of a path: selectable (the panel lists them),
    /// deletable, inserted with Ctrl on a segment between two ([`ObjectKind::with_node`]).
    const NODES: bool = false;

    /// How a press finds its body.
    const BODY_PICK: BodyPick = BodyPick::Inside;

    /// How many the level may hold (`Some(1)`: the goal), `None` for no limit of the editor's
    /// own (the level's limits still apply).
    const MOST: Option<usize> = None;

    /// How its placing tool makes one (`None`: it has no placing tool).
    const PLACE: Option<Place> = None;

    /// Its placing tool's toolbar label and hover text (with [`ObjectKind::PLACE`]).
    const TOOL: (&'static str, &'static str) = ("", "");

    /// The heading and the help line of its placing tool's panel, when it has a
    /// [`ObjectKind::template`].
    const TEMPLATE_PANEL: (&'static str, &'static str) = ("", "");

    /// Whether its placing tool is in the toolbar's Objects menu; `false`: on the toolbar itself,
    /// with the tools that shape the level's geometry (a ladder).
    const MENU: bool = true;

    /// Whether a Shift-drag with its placing tool adds the box to the selected one
    /// ([`ObjectKind::with_box`]; refused with the reason when none is selected).
    const GROWS: bool = false;

    /// The toolbar label and hover text of the tool that sets its region
    /// ([`ObjectKind::with_region`]: a door's switch): a click picks one, a dragged box becomes
    /// its region. `None`: no such tool.
    const REGION_TOOL: Option<(&'static str, &'static str)> = None;

    /// Its list in `level`.
    fn list(level: &Level) -> &[Self::Item];

    /// A new one at `at` (its placing tool, or the left panel at the hero's feet), as the level
    /// is; `None` when it is not made that way (a kind placed by a box given a point). The
    /// level's rules are checked when it is added.
    fn placed(_level: &Level, _at: Placement) -> Option<Self::Item> {
        None
    }

    /// The new one its placing tool starts from, when the tool has settings of its own (an
    /// agent's kind, size class and facing): the session keeps one per kind
    /// ([`registered::Templates`]), the tool's panel edits it ([`ObjectKind::template_fields`])
    /// and shows what a click would place (its body, red where the click would be refused), and
    /// a click places it moved so its [`ObjectKind::anchor`] is at the click. `None`: the tool
    /// makes one from the placement alone ([`ObjectKind::placed`]).
    fn template() -> Option<Self::Item> {
        None
    }

    /// The settings of a template its placing tool's panel shows (the level format's field
    /// definitions, so the panel is generated like an object's).
    fn template_fields(_template: &mut Self::Item) -> Vec<ObjectField<'_>> {
        Vec::new()
    }

    /// The tool's panel changed the template's setting `field` (a field definition's name): the
    /// kind keeps the others consistent (an agent's new kind brings its size class).
    fn template_changed(_template: &mut Self::Item, _field: &str) {}

    /// It with the box `r` added (a Shift-drag with its placing tool while it is selected, when
    /// [`ObjectKind::GROWS`]: a mover's new piece).
    fn with_box(_item: &Self::Item, _r: Aabb) -> Option<Self::Item> {
        None
    }

    /// It with its region set to `r` (its [`ObjectKind::REGION_TOOL`]).
    fn with_region(_item: &Self::Item, _r: Aabb) -> Option<Self::Item> {
        None
    }

    /// Replaces its list in `level` with `items` (already checked), returns the list before.
    fn replace(level: &mut Level, items: Vec<Self::Item>) -> Vec<Self::Item>;

    /// Checks `list` as the level's new list: the level file's rules (the one validator) and
    /// the editor's own for a new or changed item when `strict` (an undo is not strict: it puts
    /// back what was there).
    fn check(level: &Level, list: &[Self::Item], strict: bool) -> Result<(), EditError>;

    /// The outlines a press on its body grabs, and the hover highlights.
    fn body(level: &Level, item: &Self::Item) -> Vec<Vec<DVec2>>;

    /// The point of its body a drag keeps at the pointer's offset and snaps to the grid.
    fn anchor(item: &Self::Item) -> Option<DVec2>;

    /// The point pasting puts at the cursor (by default, the centre of its body's box).
    fn paste_point(level: &Level, item: &Self::Item) -> DVec2 {
        Aabb::from_points(Self::body(level, item).into_iter().flatten()).centre()
    }

    /// It moved as a whole by `delta`, everything of it along (a paste).
    fn translated(item: &Self::Item, delta: DVec2) -> Self::Item;

    /// It after a drag of `part` by `delta` (`part` exists). By default the body moves it as a
    /// whole and nothing else moves.
    fn moved(item: &Self::Item, part: Part, delta: DVec2) -> Self::Item {
        match part {
            Part::Body => Self::translated(item, delta),
            _ => item.clone(),
        }
    }

    /// Its point handles.
    fn handles(_item: &Self::Item) -> Vec<DVec2> {
        Vec::new()
    }

    /// It with a new node after node `segment`, at `at` ([`ObjectKind::NODES`] only).
    fn with_node(_item: &Self::Item, _segment: usize, _at: DVec2) -> Option<Self::Item> {
        None
    }

    /// It without node `k` ([`ObjectKind::NODES`] only; the check refuses too few).
    fn without_node(_item: &Self::Item, _k: usize) -> Option<Self::Item> {
        None
    }

    /// Its corners, handles on the selected object only.
    fn corners(_item: &Self::Item) -> Vec<DVec2> {
        Vec::new()
    }

    /// It with a corner added at `at` (a Ctrl-click beside it while it is selected).
    fn with_corner(_item: &Self::Item, _at: DVec2) -> Option<Self::Item> {
        None
    }

    /// It without corner `k`, or why not.
    fn without_corner(_item: &Self::Item, _k: usize) -> Result<Self::Item, &'static str> {
        Err("it has no corners to remove")
    }

    /// A region of its own that a press grabs before any body.
    fn region(_item: &Self::Item) -> Option<Aabb> {
        None
    }

    /// The name targets use for it, if it is a signal source: the name of signal `i` of the
    /// level's `signals` when it is item `i` (a change of it in the panel is an
    /// [`Edit::RenameSignal`], which renames every use with it).
    fn signal_name(_item: &Self::Item) -> Option<&str> {
        None
    }

    /// Where a drag that links it to a target starts ([`Part::Link`]), if it is a signal
    /// source.
    fn link_point(_level: &Level, _item: &Self::Item) -> Option<DVec2> {
        None
    }

    /// Its signal fields, if it is a target (the level's `signal_fields`), in file order:
    /// `(field, signal names)`: the view draws a line to it from each signal named. The same
    /// fields as [`ObjectKind::signal_fields_mut`], and for a delayed signal the one it waits on
    /// (drawn, not linked by a drag).
    fn signal_fields(_item: &Self::Item) -> Vec<(&'static str, &[String])> {
        Vec::new()
    }

    /// Its signal fields to change, if it is a target (a door's `open_on`, `close_on`, `toggle_on`; the
    /// level's `signal_fields_mut`), in file order: `(field, signal names)`. The first is where
    /// a drag from a signal links it.
    fn signal_fields_mut(_item: &mut Self::Item) -> Vec<(&'static str, &mut Vec<String>)> {
        Vec::new()
    }

    /// A copy of `item` made to be added to the level as it is (a paste): by default `item`;
    /// a signal gets a name of its own.
    fn fresh(_level: &Level, item: Self::Item) -> Self::Item {
        item
    }

    /// How long its motion takes to repeat, s, if it moves (the view's time preview).
    fn period(_item: &Self::Item) -> Option<f64> {
        None
    }

    /// Draws it.
    fn draw(level: &Level, item: &Self::Item, state: DrawState, pen: &mut dyn Pen);

    /// Its panel below the heading (`"door 3"`) and above the delete button: changes `item`
    /// (the session makes one edit of the change) and asks for node selection.
    fn panel(
        level: &Level,
        item: &mut Self::Item,
        node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks;

    /// An item for the registry's tests: valid on its own in the empty test level (solid ground
    /// from x = -10 to 10 with its top at y = 0, no bounds), clear of ground, with at least one
    /// handle or a region if the kind has them.
    fn example() -> Self::Item;
}

/// The edit that sets kind `K`'s whole list to `items`.
pub fn set_list<K: ObjectKind>(items: Vec<K::Item>) -> Edit {
    Edit::SetObjects {
        list: ObjectList::of::<K>(items),
        restore: false,
    }
}

/// The edit that adds `item` at the end of kind `K`'s list, and the object it becomes.
pub fn added<K: ObjectKind>(level: &Level, item: K::Item) -> (Edit, ObjectRef) {
    let mut items = K::list(level).to_vec();
    items.push(item);
    let at = ObjectRef::new(K::NAME, items.len() - 1);
    (set_list::<K>(items), at)
}

/// The edit that changes object `i` of kind `K` by `change`, the others as they are; `None` if
/// it does not exist.
pub fn changed<K: ObjectKind>(
    level: &Level,
    i: usize,
    change: impl FnOnce(&mut K::Item),
) -> Option<Edit> {
    let mut items = K::list(level).to_vec();
    change(items.get_mut(i)?);
    Some(set_list::<K>(items))
}

#[cfg(test)]
mod tests;
