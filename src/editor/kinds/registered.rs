//! The registry's side of [`ObjectKind`]: [`AnyKind`], the same operations on "object `i` of
//! this kind in the level", callable for every kind alike, and the erased values one edit or
//! one clipboard carries for any kind ([`ObjectList`], [`Clip`]), and the placing tools'
//! templates ([`Templates`]). [`Registered`] makes any
//! `ObjectKind` an `AnyKind`; a kind file never sees this module.
//!
//! An [`ObjectList`] holds its kind and a `Vec` of that kind's items behind `Any`; only that
//! kind's `Registered` ever downcasts it, so a mismatch is a bug (asserted), not an error.
use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use glam::DVec2;

use super::{
    added, changed, kind, set_list, BodyPick, DrawState, ObjectKind, PanelAsks, PanelUi, Part, Pen,
    Place, Placement, KINDS,
};
use crate::collision::Aabb;
use crate::editor::objects::ObjectRef;
use crate::editor::ops::{Edit, EditError};
use crate::level::fields::ObjectField;
use crate::level::signal::check_signals;
use crate::level::Level;

/// A list of objects of one kind: what [`Edit::SetObjects`] sets and its inverse puts back.
#[derive(Clone)]
pub struct ObjectList {
    kind: &'static dyn AnyKind,
    items: Arc<dyn Any + Send + Sync>,
}

impl ObjectList {
    /// A list of kind `K` (which must be in [`super::KINDS`]).
    pub fn of<K: ObjectKind>(items: Vec<K::Item>) -> ObjectList {
        ObjectList {
            kind: kind(K::NAME),
            items: Arc::new(items),
        }
    }

    /// Its kind.
    pub fn kind(&self) -> &'static dyn AnyKind {
        self.kind
    }

    /// Its items, if it is a list of kind `K`.
    pub fn items<K: ObjectKind>(&self) -> Option<&[K::Item]> {
        self.items.downcast_ref::<Vec<K::Item>>().map(Vec::as_slice)
    }
}

impl PartialEq for ObjectList {
    fn eq(&self, other: &Self) -> bool {
        self.kind.name() == other.kind.name() && self.kind.same(&*self.items, &*other.items)
    }
}

impl fmt::Debug for ObjectList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.kind.name())?;
        self.kind.debug(&*self.items, f)
    }
}

/// A copied object with its properties: what Ctrl+C keeps and Ctrl+V adds again.
#[derive(Clone)]
pub struct Clip {
    kind: &'static dyn AnyKind,
    item: Arc<dyn Any + Send + Sync>,
}

impl Clip {
    /// Its kind.
    pub fn kind(&self) -> &'static dyn AnyKind {
        self.kind
    }

    /// The point pasting puts at the cursor ([`ObjectKind::paste_point`]).
    pub fn paste_point(&self, level: &Level) -> DVec2 {
        self.kind.clip_point(level, &*self.item)
    }

    /// The edit that adds it moved by `delta` at the end of its list, and the index it gets.
    pub fn pasted(&self, level: &Level, delta: DVec2) -> (Edit, usize) {
        self.kind.pasted(level, &*self.item, delta)
    }
}

impl fmt::Debug for Clip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.kind.name())?;
        self.kind.debug(&*self.item, f)
    }
}

/// The templates of the kinds that have one ([`ObjectKind::template`]): what their placing tools
/// place next, as their panels left them. The session keeps one; each starts as its kind's.
pub struct Templates(Vec<(&'static dyn AnyKind, Box<dyn Any + Send + Sync>)>);

impl Default for Templates {
    fn default() -> Self {
        Templates(
            KINDS
                .iter()
                .filter_map(|&k| Some((k, k.template()?)))
                .collect(),
        )
    }
}

impl Templates {
    /// Kind `K`'s template, if it has one.
    pub fn get<K: ObjectKind>(&self) -> Option<&K::Item> {
        self.of(K::NAME)?.downcast_ref()
    }

    /// Kind `K`'s template, to change, if it has one.
    pub fn get_mut<K: ObjectKind>(&mut self) -> Option<&mut K::Item> {
        self.of_mut(K::NAME)?.downcast_mut()
    }

    /// The template of the kind named `name`, erased (for its [`AnyKind`]), if it has one.
    pub fn of(&self, name: &str) -> Option<&dyn Any> {
        let (_, t) = self.0.iter().find(|(k, _)| k.name() == name)?;
        Some(&**t)
    }

    /// The template of the kind named `name`, erased, to change.
    pub fn of_mut(&mut self, name: &str) -> Option<&mut dyn Any> {
        let (_, t) = self.0.iter_mut().find(|(k, _)| k.name() == name)?;
        Some(&mut **t)
    }
}

impl fmt::Debug for Templates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for (k, t) in &self.0 {
            list.entry(&format_args!("{} {}", k.name(), DebugErased(*k, &**t)));
        }
        list.finish()
    }
}

/// An erased value formatted by its kind.
struct DebugErased<'a>(&'static dyn AnyKind, &'a dyn Any);

impl fmt::Display for DebugErased<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(self.1, f)
    }
}

/// The operations of every kind on "object `i` of it in `level`" (see the module docs). An
/// index past its list gives `None` (or nothing) everywhere.
pub trait AnyKind: Sync {
    /// [`ObjectKind::NAME`].
    fn name(&self) -> &'static str;
    /// [`ObjectKind::NODES`].
    fn nodes(&self) -> bool;
    /// [`ObjectKind::BODY_PICK`].
    fn body_pick(&self) -> BodyPick;
    /// [`ObjectKind::MOST`].
    fn most(&self) -> Option<usize>;
    /// How many the level has.
    fn count(&self, level: &Level) -> usize;
    /// A copy of its list.
    fn list(&self, level: &Level) -> ObjectList;
    /// Checks `list` ([`ObjectKind::check`]) and sets it; returns the list before. Refused, the
    /// level is unchanged.
    fn set(
        &self,
        level: &mut Level,
        list: &ObjectList,
        strict: bool,
    ) -> Result<ObjectList, EditError>;
    /// Whether two erased values of this kind (lists or items) are equal.
    fn same(&self, a: &dyn Any, b: &dyn Any) -> bool;
    /// Formats an erased value of this kind (a list or an item).
    fn debug(&self, a: &dyn Any, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// [`ObjectKind::body`].
    fn body(&self, level: &Level, i: usize) -> Vec<Vec<DVec2>>;
    /// [`ObjectKind::handles`].
    fn handles(&self, level: &Level, i: usize) -> Vec<DVec2>;
    /// [`ObjectKind::corners`].
    fn corners(&self, level: &Level, i: usize) -> Vec<DVec2>;
    /// [`ObjectKind::region`].
    fn region(&self, level: &Level, i: usize) -> Option<Aabb>;
    /// Where `part` is (its grab point), `None` if it does not exist.
    fn part_point(&self, level: &Level, i: usize, part: Part) -> Option<DVec2>;
    /// The edit that drags `part` by `delta`, `None` if it does not exist.
    fn moved(&self, level: &Level, i: usize, part: Part, delta: DVec2) -> Option<Edit>;
    /// The edit that removes it.
    fn removed(&self, level: &Level, i: usize) -> Option<Edit>;
    /// [`ObjectKind::with_node`] as an edit.
    fn with_node(&self, level: &Level, i: usize, segment: usize, at: DVec2) -> Option<Edit>;
    /// [`ObjectKind::without_node`] as an edit.
    fn without_node(&self, level: &Level, i: usize, k: usize) -> Option<Edit>;
    /// [`ObjectKind::with_corner`] as an edit.
    fn with_corner(&self, level: &Level, i: usize, at: DVec2) -> Option<Edit>;
    /// [`ObjectKind::without_corner`] as an edit, or why not.
    fn without_corner(&self, level: &Level, i: usize, k: usize) -> Result<Edit, &'static str>;
    /// A copy of it.
    fn clip(&self, level: &Level, i: usize) -> Option<Clip>;
    /// [`ObjectKind::paste_point`] of a clip's item.
    fn clip_point(&self, level: &Level, item: &dyn Any) -> DVec2;
    /// The edit that adds a clip's item moved by `delta`, and its index.
    fn pasted(&self, level: &Level, item: &dyn Any, delta: DVec2) -> (Edit, usize);
    /// [`ObjectKind::period`].
    fn period(&self, level: &Level, i: usize) -> Option<f64>;
    /// [`ObjectKind::signal_name`].
    fn signal_name(&self, level: &Level, i: usize) -> Option<String>;
    /// [`ObjectKind::signal_fields_mut`], read: `(field, signal names)`.
    fn signal_fields(&self, level: &Level, i: usize) -> Vec<(&'static str, Vec<String>)>;
    /// The edit that adds signal `name` to its first signal field; `None` when it has no
    /// signal fields or one of them names it already.
    fn linked(&self, level: &Level, i: usize, name: &str) -> Option<Edit>;

    /// [`ObjectKind::draw`].
    fn draw(&self, level: &Level, i: usize, state: DrawState, pen: &mut dyn Pen);
    /// [`ObjectKind::panel`]: the edit of the change made, if any, and what it asks.
    fn panel(
        &self,
        level: &Level,
        i: usize,
        node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> (Option<Edit>, PanelAsks);
    /// The edit that adds [`ObjectKind::example`] (for the registry's tests).
    fn add_example(&self, level: &Level) -> Edit;
    /// [`ObjectKind::PLACE`].
    fn place(&self) -> Option<Place>;
    /// [`ObjectKind::TOOL`].
    fn tool(&self) -> (&'static str, &'static str);
    /// The edit that adds [`ObjectKind::placed`] at `at`, and the object it becomes; `None` when
    /// the kind makes none there.
    fn placed(&self, level: &Level, at: Placement) -> Option<(Edit, ObjectRef)>;
    /// [`ObjectKind::with_box`] as an edit.
    fn with_box(&self, level: &Level, i: usize, r: Aabb) -> Option<Edit>;
    /// [`ObjectKind::GROWS`].
    fn grows(&self) -> bool;
    /// [`ObjectKind::MENU`].
    fn menu(&self) -> bool;
    /// [`ObjectKind::REGION_TOOL`].
    fn region_tool(&self) -> Option<(&'static str, &'static str)>;
    /// [`ObjectKind::with_region`] as an edit.
    fn with_region(&self, level: &Level, i: usize, r: Aabb) -> Option<Edit>;
    /// A new [`ObjectKind::template`], erased.
    fn template(&self) -> Option<Box<dyn Any + Send + Sync>>;
    /// [`ObjectKind::TEMPLATE_PANEL`].
    fn template_panel(&self) -> (&'static str, &'static str);
    /// [`ObjectKind::template_fields`] of an erased template of this kind.
    fn template_fields<'a>(&self, template: &'a mut dyn Any) -> Vec<ObjectField<'a>>;
    /// [`ObjectKind::template_changed`] of an erased template of this kind.
    fn template_changed(&self, template: &mut dyn Any, field: &str);
    /// The edit that adds the template placed at `at` (its anchor there), and the object it
    /// becomes.
    fn placed_from_template(
        &self,
        level: &Level,
        template: &dyn Any,
        at: DVec2,
    ) -> (Edit, ObjectRef);
    /// What a click at `at` would place from the template: its body's outlines, and whether
    /// the level's and the kind's rules take it (the edit's own checks, run on a copy).
    fn template_preview(
        &self,
        level: &Level,
        template: &dyn Any,
        at: DVec2,
    ) -> (Vec<Vec<DVec2>>, bool);
}

/// Makes an [`ObjectKind`] an [`AnyKind`]: `&Registered::<K>::KIND` is its line in
/// [`super::KINDS`].
pub struct Registered<K>(PhantomData<fn() -> K>);

impl<K> Registered<K> {
    /// The registry's entry for `K`.
    pub const KIND: Registered<K> = Registered(PhantomData);
}

/// The edit that changes item `i` of `K` (if it exists) into what `change` makes of it.
fn change<K: ObjectKind>(
    level: &Level,
    i: usize,
    change: impl FnOnce(&K::Item) -> Option<K::Item>,
) -> Option<Edit> {
    let new = change(K::list(level).get(i)?)?;
    changed::<K>(level, i, |a| *a = new)
}

fn item<K: ObjectKind>(a: &dyn Any) -> &K::Item {
    a.downcast_ref::<K::Item>()
        .expect("a clip or a template holds an item of its own kind")
}

/// Kind `K`'s rules on `items` as its new list: its most ([`ObjectKind::MOST`]) and its check.
fn check_list<K: ObjectKind>(
    level: &Level,
    items: &[K::Item],
    strict: bool,
) -> Result<(), EditError> {
    if let Some(most) = K::MOST.filter(|&m| items.len() > m) {
        return Err(EditError::TooMany {
            kind: K::NAME,
            most,
        });
    }
    K::check(level, items, strict)
}

/// The template `t` moved so its anchor is at `at`.
fn placed_template<K: ObjectKind>(t: &dyn Any, at: DVec2) -> K::Item {
    let t = item::<K>(t);
    K::translated(t, at - K::anchor(t).unwrap_or(DVec2::ZERO))
}

impl<K: ObjectKind> AnyKind for Registered<K> {
    fn name(&self) -> &'static str {
        K::NAME
    }

    fn nodes(&self) -> bool {
        K::NODES
    }

    fn body_pick(&self) -> BodyPick {
        K::BODY_PICK
    }

    fn most(&self) -> Option<usize> {
        K::MOST
    }

    fn count(&self, level: &Level) -> usize {
        K::list(level).len()
    }

    fn list(&self, level: &Level) -> ObjectList {
        ObjectList::of::<K>(K::list(level).to_vec())
    }

    fn set(
        &self,
        level: &mut Level,
        list: &ObjectList,
        strict: bool,
    ) -> Result<ObjectList, EditError> {
        let items = list
            .items::<K>()
            .expect("an object list is set by its own kind");
        check_list::<K>(level, items, strict)?;
        let old = K::replace(level, items.to_vec());
        // A signal reads movers and checkpoints by index: a list that shrinks or grows is
        // checked against the signals (a removal the level's signals read is refused).
        if strict && old.len() != items.len() && !level.signals.is_empty() {
            if let Err(e) = check_signals(level) {
                K::replace(level, old);
                return Err(e.into());
            }
        }
        Ok(ObjectList::of::<K>(old))
    }

    fn same(&self, a: &dyn Any, b: &dyn Any) -> bool {
        if let (Some(a), Some(b)) = (
            a.downcast_ref::<Vec<K::Item>>(),
            b.downcast_ref::<Vec<K::Item>>(),
        ) {
            return a == b;
        }
        matches!(
            (a.downcast_ref::<K::Item>(), b.downcast_ref::<K::Item>()),
            (Some(a), Some(b)) if a == b
        )
    }

    fn debug(&self, a: &dyn Any, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(list) = a.downcast_ref::<Vec<K::Item>>() {
            return fmt::Debug::fmt(list, f);
        }
        match a.downcast_ref::<K::Item>() {
            Some(item) => fmt::Debug::fmt(item, f),
            None => f.write_str("?"),
        }
    }

    fn body(&self, level: &Level, i: usize) -> Vec<Vec<DVec2>> {
        K::list(level)
            .get(i)
            .map(|a| K::body(level, a))
            .unwrap_or_default()
    }

    fn handles(&self, level: &Level, i: usize) -> Vec<DVec2> {
        K::list(level).get(i).map(K::handles).unwrap_or_default()
    }

    fn corners(&self, level: &Level, i: usize) -> Vec<DVec2> {
        K::list(level).get(i).map(K::corners).unwrap_or_default()
    }

    fn region(&self, level: &Level, i: usize) -> Option<Aabb> {
        K::list(level).get(i).and_then(K::region)
    }

    fn part_point(&self, level: &Level, i: usize, part: Part) -> Option<DVec2> {
        let a = K::list(level).get(i)?;
        match part {
            Part::Body => K::anchor(a),
            Part::Handle(k) => K::handles(a).get(k).copied(),
            Part::Corner(k) => K::corners(a).get(k).copied(),
            Part::Region => K::region(a).map(|r| r.min),
            Part::Link => K::link_point(level, a),
        }
    }

    fn moved(&self, level: &Level, i: usize, part: Part, delta: DVec2) -> Option<Edit> {
        self.part_point(level, i, part)?;
        change::<K>(level, i, |a| Some(K::moved(a, part, delta)))
    }

    fn removed(&self, level: &Level, i: usize) -> Option<Edit> {
        let mut items = K::list(level).to_vec();
        (i < items.len()).then(|| {
            items.remove(i);
            set_list::<K>(items)
        })
    }

    fn with_node(&self, level: &Level, i: usize, segment: usize, at: DVec2) -> Option<Edit> {
        change::<K>(level, i, |a| K::with_node(a, segment, at))
    }

    fn without_node(&self, level: &Level, i: usize, k: usize) -> Option<Edit> {
        change::<K>(level, i, |a| K::without_node(a, k))
    }

    fn with_corner(&self, level: &Level, i: usize, at: DVec2) -> Option<Edit> {
        change::<K>(level, i, |a| K::with_corner(a, at))
    }

    fn without_corner(&self, level: &Level, i: usize, k: usize) -> Result<Edit, &'static str> {
        let a = K::list(level).get(i).ok_or("there is no such object")?;
        let new = K::without_corner(a, k)?;
        Ok(change::<K>(level, i, |_| Some(new)).expect("the object exists"))
    }

    fn clip(&self, level: &Level, i: usize) -> Option<Clip> {
        Some(Clip {
            kind: kind(K::NAME),
            item: Arc::new(K::list(level).get(i)?.clone()),
        })
    }

    fn clip_point(&self, level: &Level, a: &dyn Any) -> DVec2 {
        K::paste_point(level, item::<K>(a))
    }

    fn pasted(&self, level: &Level, a: &dyn Any, delta: DVec2) -> (Edit, usize) {
        let mut items = K::list(level).to_vec();
        items.push(K::fresh(level, K::translated(item::<K>(a), delta)));
        let at = items.len() - 1;
        (set_list::<K>(items), at)
    }

    fn period(&self, level: &Level, i: usize) -> Option<f64> {
        K::list(level).get(i).and_then(K::period)
    }

    fn signal_name(&self, level: &Level, i: usize) -> Option<String> {
        K::signal_name(K::list(level).get(i)?).map(str::to_string)
    }

    fn signal_fields(&self, level: &Level, i: usize) -> Vec<(&'static str, Vec<String>)> {
        K::list(level)
            .get(i)
            .map(|a| {
                K::signal_fields(a)
                    .into_iter()
                    .map(|(f, names)| (f, names.to_vec()))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn linked(&self, level: &Level, i: usize, name: &str) -> Option<Edit> {
        change::<K>(level, i, |a| {
            let mut a = a.clone();
            let mut fields = K::signal_fields_mut(&mut a);
            if fields
                .iter()
                .any(|(_, names)| names.iter().any(|n| n == name))
            {
                return None;
            }
            fields.first_mut()?.1.push(name.to_string());
            Some(a)
        })
    }

    fn draw(&self, level: &Level, i: usize, state: DrawState, pen: &mut dyn Pen) {
        if let Some(a) = K::list(level).get(i) {
            K::draw(level, a, state, pen);
        }
    }

    fn panel(
        &self,
        level: &Level,
        i: usize,
        node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> (Option<Edit>, PanelAsks) {
        let Some(old) = K::list(level).get(i) else {
            return (None, PanelAsks::default());
        };
        let mut a = old.clone();
        let asks = K::panel(level, &mut a, node, ui);
        if a == *old {
            return (None, asks);
        }
        // A new name of a signal renames every use with it, one undoable edit (a panel changes
        // one widget at a time: the rename is the change).
        if let (Some(from), Some(to)) = (K::signal_name(old), K::signal_name(&a)) {
            if from != to {
                let name = to.to_string();
                return (Some(Edit::RenameSignal { index: i, name }), asks);
            }
        }
        let mut items = K::list(level).to_vec();
        items[i] = a;
        (Some(set_list::<K>(items)), asks)
    }

    fn add_example(&self, level: &Level) -> Edit {
        let mut items = K::list(level).to_vec();
        items.push(K::example());
        set_list::<K>(items)
    }

    fn place(&self) -> Option<Place> {
        K::PLACE
    }

    fn tool(&self) -> (&'static str, &'static str) {
        K::TOOL
    }

    fn placed(&self, level: &Level, at: Placement) -> Option<(Edit, ObjectRef)> {
        Some(added::<K>(level, K::placed(level, at)?))
    }

    fn with_box(&self, level: &Level, i: usize, r: Aabb) -> Option<Edit> {
        change::<K>(level, i, |a| K::with_box(a, r))
    }

    fn grows(&self) -> bool {
        K::GROWS
    }

    fn menu(&self) -> bool {
        K::MENU
    }

    fn region_tool(&self) -> Option<(&'static str, &'static str)> {
        K::REGION_TOOL
    }

    fn with_region(&self, level: &Level, i: usize, r: Aabb) -> Option<Edit> {
        change::<K>(level, i, |a| K::with_region(a, r))
    }

    fn template(&self) -> Option<Box<dyn Any + Send + Sync>> {
        Some(Box::new(K::template()?))
    }

    fn template_panel(&self) -> (&'static str, &'static str) {
        K::TEMPLATE_PANEL
    }

    fn template_fields<'a>(&self, template: &'a mut dyn Any) -> Vec<ObjectField<'a>> {
        let t = template
            .downcast_mut::<K::Item>()
            .expect("a template holds an item of its own kind");
        K::template_fields(t)
    }

    fn template_changed(&self, template: &mut dyn Any, field: &str) {
        if let Some(t) = template.downcast_mut::<K::Item>() {
            K::template_changed(t, field);
        }
    }

    fn placed_from_template(
        &self,
        level: &Level,
        template: &dyn Any,
        at: DVec2,
    ) -> (Edit, ObjectRef) {
        added::<K>(level, placed_template::<K>(template, at))
    }

    fn template_preview(
        &self,
        level: &Level,
        template: &dyn Any,
        at: DVec2,
    ) -> (Vec<Vec<DVec2>>, bool) {
        let new = placed_template::<K>(template, at);
        let body = K::body(level, &new);
        let mut items = K::list(level).to_vec();
        items.push(new);
        (body, check_list::<K>(level, &items, true).is_ok())
    }
}
