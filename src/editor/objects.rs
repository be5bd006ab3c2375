//! The level's objects in the editor, whatever their kind: which object a press grabs and which
//! part of it, how a drag moves it, and what deleting it does; the signals' links from their
//! sources to their targets ([`links`], [`link_edit`]). Every function here goes through
//! the registry of object kinds ([`super::kinds::KINDS`]) and names none: what a door, a mover or
//! an agent is to the editor is its kind's file.
//!
//! An object edit ([`Edit::SetObjects`]) replaces its kind's whole list, so its inverse is the
//! list before: exact, and as small as the list (levels hold tens of objects; the limits bound
//! them). Every entry is checked with the level file's own rules (the one validator,
//! `level::validate`, through the kind's check), so a valid level stays valid; a kind may add
//! rules of the editor's own for new or changed entries (an agent's placement). Undo puts back
//! the list before ([`Edit::is_restore`]) and skips those.
//!
//! # Tolerances
//! None of its own: overlaps are `collision::colliders_meet`'s exact test on the convex pieces
//! (touching is allowed), positions are snapped by the caller or are the pointer's.
use glam::DVec2;

use super::kinds::{kind, AnyKind, BodyPick, Part, KINDS};
use super::ops::Edit;
use super::session::{closest_on_segment, inside};
use crate::collision::Aabb;
use crate::level::Level;

/// An object of the level: its kind's name ([`super::kinds::ObjectKind::NAME`]) and its index
/// in its kind's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    /// Its kind's name.
    pub kind: &'static str,
    /// Its index in its kind's list.
    pub index: usize,
}

impl ObjectRef {
    /// Object `index` of the kind named `kind`.
    pub const fn new(kind: &'static str, index: usize) -> Self {
        ObjectRef { kind, index }
    }

    /// Its kind.
    pub fn kind(self) -> &'static dyn AnyKind {
        kind(self.kind)
    }
}

/// The part of an object a press grabs, and a drag moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grab {
    /// The object.
    pub object: ObjectRef,
    /// Which part of it.
    pub part: Part,
}

impl Grab {
    /// `part` of object `index` of the kind named `kind`.
    pub const fn new(kind: &'static str, index: usize, part: Part) -> Self {
        Grab {
            object: ObjectRef::new(kind, index),
            part,
        }
    }
}

/// The four corners of `r`, counter-clockwise from its lower left.
pub fn rect_points(r: Aabb) -> Vec<DVec2> {
    vec![
        r.min,
        DVec2::new(r.max.x, r.min.y),
        r.max,
        DVec2::new(r.min.x, r.max.y),
    ]
}

/// The centre of `points`' box.
pub fn rect_centre(points: &[DVec2]) -> DVec2 {
    Aabb::from_points(points.iter().copied()).centre()
}

/// Every object of the level, kind by kind in [`KINDS`]' order, each list in order.
fn all(level: &Level) -> impl Iterator<Item = (&'static dyn AnyKind, usize)> + '_ {
    KINDS
        .iter()
        .flat_map(move |&k| (0..k.count(level)).map(move |i| (k, i)))
}

fn grab(k: &'static dyn AnyKind, index: usize, part: Part) -> Grab {
    Grab::new(k.name(), index, part)
}

/// The handle nearest `p` within `radius` (path nodes, patrol range ends, a signal's link
/// handle), else the body of an
/// object picked by its box ([`BodyPick::Box`]: an agent) grown by `radius`, the last one drawn
/// first.
pub fn pick_handle(level: &Level, p: DVec2, radius: f64) -> Option<Grab> {
    let mut best: Option<(f64, Grab)> = None;
    for (k, i) in all(level) {
        for (h, q) in k.handles(level, i).into_iter().enumerate() {
            let d = q.distance(p);
            if d <= radius && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, grab(k, i, Part::Handle(h))));
            }
        }
        if let Some(q) = k.part_point(level, i, Part::Link) {
            let d = q.distance(p);
            if d <= radius && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, grab(k, i, Part::Link)));
            }
        }
    }
    if let Some((_, g)) = best {
        return Some(g);
    }
    let boxed = KINDS
        .iter()
        .rev()
        .filter(|k| k.body_pick() == BodyPick::Box);
    boxed
        .flat_map(|&k| (0..k.count(level)).rev().map(move |i| (k, i)))
        .find_map(|(k, i)| {
            let body = Aabb::from_points(k.body(level, i).into_iter().flatten());
            body.expand(radius)
                .contains(p)
                .then(|| grab(k, i, Part::Body))
        })
}

/// The corner of `object` within `radius` of `p` (the nearest): corners are handles of the
/// selected object only.
pub fn pick_corner(level: &Level, object: ObjectRef, p: DVec2, radius: f64) -> Option<Grab> {
    let k = object.kind();
    let mut best: Option<(f64, usize)> = None;
    for (c, q) in k.corners(level, object.index).into_iter().enumerate() {
        let d = q.distance(p);
        if d <= radius && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| grab(k, object.index, Part::Corner(c)))
}

/// The segment of a path (between two nodes of a kind with [`AnyKind::nodes`]) within `radius`
/// of `p`: `(object, segment, nearest point)`, segment `s` running from node `s` to node `s + 1`.
pub fn pick_path_segment(
    level: &Level,
    p: DVec2,
    radius: f64,
) -> Option<(ObjectRef, usize, DVec2)> {
    let mut best: Option<(f64, (ObjectRef, usize, DVec2))> = None;
    for (k, i) in all(level).filter(|(k, _)| k.nodes()) {
        let pts = k.handles(level, i);
        for (s, w) in pts.windows(2).enumerate() {
            let q = closest_on_segment(w[0], w[1], p);
            let d = q.distance(p);
            if d <= radius && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, (ObjectRef::new(k.name(), i), s, q)));
            }
        }
    }
    best.map(|(_, h)| h)
}

/// The region (a door's switch), else the body picked by its inside ([`BodyPick::Inside`]: a
/// door, a mover at rest) holding `p`, kind by kind in [`KINDS`]' order, the last one of a
/// list first.
pub fn pick_inside(level: &Level, p: DVec2) -> Option<Grab> {
    let last_first = |k: &'static dyn AnyKind| (0..k.count(level)).rev().map(move |i| (k, i));
    let region = KINDS
        .iter()
        .flat_map(|&k| last_first(k))
        .find(|&(k, i)| k.region(level, i).is_some_and(|r| r.contains(p)));
    if let Some((k, i)) = region {
        return Some(grab(k, i, Part::Region));
    }
    KINDS
        .iter()
        .filter(|k| k.body_pick() == BodyPick::Inside)
        .flat_map(|&k| last_first(k))
        .find(|&(k, i)| k.body(level, i).iter().any(|o| inside(o, p)))
        .map(|(k, i)| grab(k, i, Part::Body))
}

/// The body picked by its inside behind the polygons ([`BodyPick::Behind`]: a ladder) holding
/// `p`, kind by kind in [`KINDS`]' order, the last one of a list first.
pub fn pick_behind(level: &Level, p: DVec2) -> Option<Grab> {
    KINDS
        .iter()
        .filter(|k| k.body_pick() == BodyPick::Behind)
        .flat_map(|&k| (0..k.count(level)).rev().map(move |i| (k, i)))
        .find(|&(k, i)| k.body(level, i).iter().any(|o| inside(o, p)))
        .map(|(k, i)| grab(k, i, Part::Body))
}

/// The body picked by its outline ([`BodyPick::Outline`]: a checkpoint, the goal) nearest `p`
/// within `radius`.
pub fn pick_outline(level: &Level, p: DVec2, radius: f64) -> Option<Grab> {
    let mut best: Option<(f64, Grab)> = None;
    for (k, i) in all(level).filter(|(k, _)| k.body_pick() == BodyPick::Outline) {
        for o in k.body(level, i) {
            for e in 0..o.len() {
                let d = closest_on_segment(o[e], o[(e + 1) % o.len()], p).distance(p);
                if d <= radius && best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, grab(k, i, Part::Body)));
                }
            }
        }
    }
    best.map(|(_, g)| g)
}

/// Whether `grab` names something `level` has.
pub fn exists(level: &Level, grab: Grab) -> bool {
    grab_point(level, grab).is_some()
}

/// The point of `grab` that a drag keeps at the pointer's offset (and snaps to the grid): its
/// kind's anchor for the body, the handle or corner itself, a region's lower-left corner. `None`
/// if it does not exist.
pub fn grab_point(level: &Level, grab: Grab) -> Option<DVec2> {
    grab.object
        .kind()
        .part_point(level, grab.object.index, grab.part)
}

/// The edit that moves `grab` by `delta` (its kind says how: a node moves its offset, a door
/// moves without its switch). `None` if it does not exist.
pub fn moved(level: &Level, grab: Grab, delta: DVec2) -> Option<Edit> {
    grab.object
        .kind()
        .moved(level, grab.object.index, grab.part, delta)
}

/// The edit that removes `object` (everything of it goes along: a door's switch).
pub fn removed(level: &Level, object: ObjectRef) -> Option<Edit> {
    object.kind().removed(level, object.index)
}

/// The centre of an object's body's box.
pub fn centre(level: &Level, object: ObjectRef) -> Option<DVec2> {
    let k = object.kind();
    (object.index < k.count(level))
        .then(|| Aabb::from_points(k.body(level, object.index).into_iter().flatten()).centre())
}

/// A line the view draws from a signal's source to a target that acts on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The signal's name.
    pub signal: String,
    /// The source's link handle ([`Part::Link`]).
    pub from: DVec2,
    /// The target.
    pub target: ObjectRef,
    /// The centre of the target's box.
    pub to: DVec2,
    /// The target's field that names the signal (`open_on`).
    pub field: &'static str,
    /// The field's place among the target's signal fields (the line's colour).
    pub action: usize,
}

/// Every link of the level: each target's signal names (kind by kind in [`KINDS`]' order, each
/// object's fields in file order) to the source that defines it. A name no source defines has
/// no line (the level's rules refuse it).
pub fn links(level: &Level) -> Vec<Link> {
    let sources: std::collections::HashMap<String, DVec2> = all(level)
        .filter_map(|(k, i)| {
            Some((
                k.signal_name(level, i)?,
                k.part_point(level, i, Part::Link)?,
            ))
        })
        .collect();
    let mut out = Vec::new();
    for (k, i) in all(level) {
        let fields = k.signal_fields(level, i);
        if fields.iter().all(|(_, names)| names.is_empty()) {
            continue;
        }
        let target = ObjectRef::new(k.name(), i);
        let Some(to) = centre(level, target) else {
            continue;
        };
        for (action, (field, names)) in fields.into_iter().enumerate() {
            for signal in names {
                if let Some(&from) = sources.get(&signal) {
                    out.push(Link {
                        signal,
                        from,
                        target,
                        to,
                        field,
                        action,
                    });
                }
            }
        }
    }
    out
}

/// The edit that links the signal `source` defines to the target under `p` (its first signal
/// field: a door's `open_on`, a mover's `start_on`), and the target; or why not.
pub fn link_edit(level: &Level, source: ObjectRef, p: DVec2) -> Result<(Edit, ObjectRef), String> {
    let name = source
        .kind()
        .signal_name(level, source.index)
        .ok_or("only a signal links to a target")?;
    let target = pick_inside(level, p)
        .map(|g| g.object)
        .filter(|o| !o.kind().signal_fields(level, o.index).is_empty())
        .ok_or_else(|| format!("drop `{name}` on a door or a mover to link it"))?;
    let edit = target
        .kind()
        .linked(level, target.index, &name)
        .ok_or_else(|| format!("{} {} already acts on `{name}`", target.kind, target.index))?;
    Ok((edit, target))
}
